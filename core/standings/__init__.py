"""Standings: the rebuild, the standings as pages and exports show them, tie notes,
prizes, the results PDF and the CSV exports."""
