"""`clix bench`: the engine's speed, against another checkout, and the meta's time to precision."""
