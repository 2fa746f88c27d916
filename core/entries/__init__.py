"""Who plays: the player registry, an event's registrations, the event day's check-in,
late players and substitutes, and withdrawals with their leave points."""
