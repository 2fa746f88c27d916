"""A round's life: start, publish, close, reopen, finish, a table's lock, and how far
each table has got."""
