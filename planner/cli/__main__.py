"""`python -m planner.cli` runs the same command as the `planner` script."""

from planner.cli import main

main()
