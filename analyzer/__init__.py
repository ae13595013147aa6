"""clix analyzer: runs seeded games in parallel and turns them into statistics, plots and reports."""
