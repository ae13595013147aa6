"""`clix meta`: balance across a field of armies: its cells, matrix, Nash field, balance checks and outputs."""
