"""Series (circuits of events): legs, standings, the grand final, the series' PDF and
the demo circuit."""
