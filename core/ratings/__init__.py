"""Ratings across events, and a player's profile (rating chart, head-to-head)."""
