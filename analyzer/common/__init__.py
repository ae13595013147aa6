"""What every layer of the analyzer shares: the user error, checks of numbers, the progress bar."""
