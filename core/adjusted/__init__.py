"""Adjusted scores for hands a table could not play (`game.adjusted`): made when a
round closes, dropped when it reopens, made again by a full rebuild."""
