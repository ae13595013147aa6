"""Playing games: the runner, the worker pool, the Dask cluster, the result store and the packed rows."""
