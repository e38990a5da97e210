"""Tools a developer runs, outside the site's app: ``make bench`` (``tools.bench``),
``make bench-solver`` (``tools.bench_solver``) and ``make loadtest`` (``tools.loadtest``)."""
