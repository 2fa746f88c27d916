"""A hand's save: recording and correcting a hand, its history and restoring a version,
the set totals it keeps, and the sheet row's form."""
