"""`clix duel`: one army against another, its style sweep, its check by a stronger player, and replays."""
