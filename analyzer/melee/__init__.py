"""`clix melee`: three or four armies at one table, free-for-all or two teams (issue 39)."""
