"""`clix value`: what each figure and plot-twist card is worth, from a designed experiment."""
