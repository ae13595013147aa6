"""`clix build`: the best legal army for a budget against a field."""
