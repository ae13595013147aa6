"""`clix horrified`: Horrified's co-operative win rates, difficulty and hero tables, sensitivity (issue 40)."""
