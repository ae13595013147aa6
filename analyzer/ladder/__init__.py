"""`clix ladder` and `clix tune`: player styles rated against each other, and the heuristic's weights tuned."""
