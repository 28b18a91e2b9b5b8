// MirrorStore: see the module's files.
