"""Statistics shared by the commands: scores over seat-swapped pairs, a duel's summary, sequential looks."""
