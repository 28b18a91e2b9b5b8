// MirrorScheduler: schedules, site locks, run history, unit files.
