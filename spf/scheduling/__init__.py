"""Stage 3, schedules: transformation recipes and the autoscheduler's schedule trees."""
