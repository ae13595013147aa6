"""Writing what runs produce: the claimed --out folder, the duel's tables, charts, maps and HTML report."""
