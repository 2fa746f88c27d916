"""Seating a round, the director's changes to a draft, and the papers a seating prints
(table cards, score sheets, find your table)."""
