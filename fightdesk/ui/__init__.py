"""Everything Qt: item models, the main window, the timeline, cards and dialogs."""
