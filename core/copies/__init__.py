"""An event's copies: events sharing one identity (`Event.uid`), of which one at most
counts in the ratings and series (`Event.counted`); the others are kept apart, marked
as copies wherever they are listed, until an organiser puts one in instead."""
