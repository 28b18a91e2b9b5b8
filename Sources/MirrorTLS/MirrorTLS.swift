// MirrorTLS: see the module's files.
