"""The venue screens: the round clock and the announcements."""
