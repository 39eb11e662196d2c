"""When and where the window's estimates are computed: the scheduler, its turns and its search.

``scheduler`` decides (timers, generations, the core's process); ``turns`` holds the work done a
turn of the event loop at a time (Qt-free); ``search`` runs the search for what would make a build
fit off the UI thread. Imports the core, ``advisor.ui.worker`` and ``advisor.ui.core_process``.
"""
