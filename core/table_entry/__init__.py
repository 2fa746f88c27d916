"""Players' entry at the table: players' codes, a hand entered by one player and
confirmed by another (or disputed), and the slips that carry the codes."""
