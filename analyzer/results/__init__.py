"""`clix results`: the runs recorded in the result store, listed, shown and exported."""
