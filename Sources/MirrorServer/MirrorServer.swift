// MirrorServer: request parser state machine, epoll loop, file responder, TLS transport.
