/* A TCP proxy that adds a fixed one-way delay in each direction: Benchmarks/delay-proxy.py in C.
 *
 * Usage: delay-proxy LISTEN_PORT TARGET_HOST:TARGET_PORT --delay-ms D [--listen-host 127.0.0.1]
 * Build: cc -O2 -o delay-proxy Benchmarks/delay-proxy.c   (C11, Linux, libc only)
 *
 * Same behaviour as the Python version (see its docstring), with less CPU per chunk and precise
 * timers: every chunk read from one side is written to the other side D milliseconds after it
 * arrived, in order. Each direction keeps a FIFO of (deadline, bytes); deadlines come from arrival
 * times, so the delay models propagation, not bandwidth. With D = 0 bytes are forwarded at once.
 * The client's TCP handshake with the proxy takes no time, so the first client bytes leave no
 * earlier than 2·D after the accept and then take D more. Reading a side pauses while its
 * direction holds more than 16 MiB or while the destination socket would block. An EOF travels
 * through the queue and becomes shutdown(SHUT_WR); a connection closes when both directions have
 * delivered their EOF, or at once on any error (a reset closes both sides).
 *
 * One thread, level-triggered epoll, non-blocking sockets, CLOCK_MONOTONIC. The earliest head
 * deadline of all directions (a binary heap) sets the epoll_pwait2 timeout in nanoseconds
 * (epoll_wait with the milliseconds rounded up where epoll_pwait2 is missing); a wakeup sends
 * everything due by then or within the next 0.1 ms (at most D/10), so that neighbouring deadlines
 * share one wakeup.
 *
 * Prints `delay-proxy: listening on HOST:PORT -> HOST:PORT, one-way delay D ms` on standard output
 * once ready; on SIGTERM or SIGINT prints the number of connections and bytes forwarded to standard
 * error and exits 0. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <limits.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 35))
#define HAVE_EPOLL_PWAIT2 1
#endif

#define READ_HIGH_WATER (16u << 20) /* queued bytes per direction before reading pauses */
#define READ_SIZE (256u << 10)      /* one recv, as asyncio's */
#define MAX_IOV 64                  /* due chunks written by one sendmsg */
#define MAX_EVENTS 256
#define MAX_LISTENERS 8

enum kind { LISTENER, SIGNALS, SOCKET };

struct conn;

/* One registered file descriptor: a listener, the signalfd, or one side of a connection. */
struct endpoint {
    enum kind kind;
    int fd;
    uint32_t events;         /* what epoll watches now (0: not registered) */
    bool connecting;         /* upstream connect in progress */
    bool blocked;            /* the last write would block: waiting for EPOLLOUT */
    bool eof_read;           /* read returned 0 */
    struct conn *conn;
};

/* A chunk of bytes (or the EOF) waiting for its deadline. */
struct chunk {
    struct chunk *next;
    int64_t deadline;
    size_t len, off;         /* off: bytes already written */
    bool eof;
    char data[];
};

/* One direction: the delay queue from src to dst. */
struct dir {
    struct chunk *head, *tail;
    size_t queued;           /* bytes in the queue not yet written */
    int64_t start_after;     /* earliest departure (the modelled TCP handshake) */
    int64_t key;             /* deadline the heap holds for this direction */
    int heap_index;          /* -1: not in the heap */
    bool finished;           /* EOF delivered */
    struct endpoint *src, *dst;
    struct conn *conn;
};

struct conn {
    struct endpoint client, upstream;
    struct dir up, down;     /* up: client → upstream; down: upstream → client */
    const struct addrinfo *addr; /* the target address being tried */
    bool closed;
    struct conn *next_dead;
};

static int epfd;
static int64_t now, delay_ns, window_ns;
static const char *target_host;
static int target_port;
static struct addrinfo *target_addrs;
static const char *target_error; /* why target_addrs is NULL */
static struct endpoint listeners[MAX_LISTENERS];
static int listener_count;
static bool accept_paused;
static struct dir **heap;
static int heap_len, heap_cap;
static struct conn *dead; /* closed, freed after the current batch of events */
static unsigned long long connections, bytes_up, bytes_down;
static char readbuf[READ_SIZE];

static int64_t monotonic_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Whether a deadline has come. A wakeup also sends what falls due within the next window_ns
 * (at most 0.1 ms and a tenth of the delay): timers fire about that late anyway, and fewer
 * wakeups (which dominate this proxy's CPU time) cut it by about a sixth. */
static bool due(int64_t deadline)
{
    return deadline <= now + window_ns;
}

static void *xmalloc(size_t size)
{
    void *p = malloc(size);
    if (!p) {
        fputs("delay-proxy: out of memory\n", stderr);
        exit(1);
    }
    return p;
}

/* MARK: the timer heap (directions keyed by their head's deadline) */

static void heap_put(int i, struct dir *d)
{
    heap[i] = d;
    d->heap_index = i;
}

static void heap_sift(int i)
{
    struct dir *d = heap[i];
    while (i > 0 && heap[(i - 1) / 2]->key > d->key) {
        heap_put(i, heap[(i - 1) / 2]);
        i = (i - 1) / 2;
    }
    for (;;) {
        int child = 2 * i + 1;
        if (child >= heap_len)
            break;
        if (child + 1 < heap_len && heap[child + 1]->key < heap[child]->key)
            child++;
        if (heap[child]->key >= d->key)
            break;
        heap_put(i, heap[child]);
        i = child;
    }
    heap_put(i, d);
}

static void heap_remove(struct dir *d)
{
    int i = d->heap_index;
    if (i < 0)
        return;
    d->heap_index = -1;
    if (i != --heap_len) {
        heap_put(i, heap[heap_len]);
        heap_sift(i);
    }
}

static void heap_set(struct dir *d, int64_t key)
{
    if (d->heap_index >= 0 && d->key == key)
        return;
    d->key = key;
    if (d->heap_index < 0) {
        if (heap_len == heap_cap) {
            heap_cap = heap_cap ? 2 * heap_cap : 256;
            heap = realloc(heap, heap_cap * sizeof *heap);
            if (!heap) {
                fputs("delay-proxy: out of memory\n", stderr);
                exit(1);
            }
        }
        heap_put(heap_len++, d);
    }
    heap_sift(d->heap_index);
}

/* MARK: epoll registration */

static void watch(struct endpoint *e, uint32_t events)
{
    if (events == e->events)
        return;
    struct epoll_event ev = {.events = events, .data.ptr = e};
    /* Unwatched when nothing is wanted: EPOLLHUP cannot be masked and would spin. */
    int op = !e->events ? EPOLL_CTL_ADD : !events ? EPOLL_CTL_DEL : EPOLL_CTL_MOD;
    if (epoll_ctl(epfd, op, e->fd, &ev) < 0) {
        fprintf(stderr, "delay-proxy: epoll_ctl: %s\n", strerror(errno));
        exit(1);
    }
    e->events = events;
}

static bool may_read(const struct dir *d)
{
    return !d->src->eof_read && d->queued <= READ_HIGH_WATER && !d->dst->blocked;
}

static void update_events(struct conn *c)
{
    if (c->closed)
        return;
    watch(&c->client, (may_read(&c->up) ? EPOLLIN : 0) | (c->client.blocked ? EPOLLOUT : 0));
    watch(&c->upstream, c->upstream.connecting ? EPOLLOUT
                        : (may_read(&c->down) ? EPOLLIN : 0) | (c->upstream.blocked ? EPOLLOUT : 0));
}

static void set_accepting(bool on)
{
    accept_paused = !on;
    for (int i = 0; i < listener_count; i++)
        watch(&listeners[i], on ? EPOLLIN : 0);
}

/* MARK: connections */

static void free_queue(struct dir *d)
{
    while (d->head) {
        struct chunk *k = d->head;
        d->head = k->next;
        free(k);
    }
    d->tail = NULL;
    d->queued = 0;
}

static void close_conn(struct conn *c)
{
    if (c->closed)
        return;
    c->closed = true;
    heap_remove(&c->up);
    heap_remove(&c->down);
    free_queue(&c->up);
    free_queue(&c->down);
    close(c->client.fd); /* closing also removes the descriptors from epoll */
    if (c->upstream.fd >= 0)
        close(c->upstream.fd);
    c->next_dead = dead; /* events of this batch may still point at it */
    dead = c;
    if (accept_paused)
        set_accepting(true);
}

/* Keeps d in the heap while its head waits for its deadline and the destination can take it. */
static void schedule(struct dir *d)
{
    if (d->head && !due(d->head->deadline) && !d->dst->connecting && !d->dst->blocked)
        heap_set(d, d->head->deadline);
    else
        heap_remove(d);
}

/* Writes every chunk that is due, in order, and then the EOF if it is due. */
static void flush(struct dir *d)
{
    struct conn *c = d->conn;
    struct endpoint *dst = d->dst;
    while (d->head && due(d->head->deadline)) {
        if (dst->connecting || dst->blocked)
            break;
        if (d->head->eof) {
            free_queue(d);
            if (shutdown(dst->fd, SHUT_WR) < 0) {
                close_conn(c);
                return;
            }
            d->finished = true;
            if (c->up.finished && c->down.finished) {
                close_conn(c);
                return;
            }
            break;
        }
        struct iovec iov[MAX_IOV];
        int n = 0;
        size_t total = 0;
        for (struct chunk *k = d->head; k && n < MAX_IOV && !k->eof && due(k->deadline); k = k->next) {
            iov[n].iov_base = k->data + k->off;
            iov[n].iov_len = k->len - k->off;
            total += iov[n++].iov_len;
        }
        struct msghdr msg = {.msg_iov = iov, .msg_iovlen = n};
        ssize_t w = sendmsg(dst->fd, &msg, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            if (errno == EAGAIN || errno == EWOULDBLOCK) {
                dst->blocked = true;
                break;
            }
            close_conn(c);
            return;
        }
        d->queued -= w;
        for (size_t left = w; left > 0;) { /* drop what was written */
            struct chunk *k = d->head;
            if (left < k->len - k->off) {
                k->off += left;
                break;
            }
            left -= k->len - k->off;
            d->head = k->next;
            free(k);
        }
        if (!d->head)
            d->tail = NULL;
        if ((size_t)w < total) { /* the socket buffer is full */
            dst->blocked = true;
            break;
        }
    }
    schedule(d);
    update_events(c);
}

/* Queues bytes (or the EOF) read from d's source; forwards them at once when they are due,
 * nothing waits before them and the destination is writable (D = 0). */
static void push(struct dir *d, const char *buf, size_t len, bool eof)
{
    struct conn *c = d->conn;
    int64_t deadline = (now > d->start_after ? now : d->start_after) + delay_ns;
    if (!eof && !d->head && due(deadline) && !d->dst->connecting && !d->dst->blocked) {
        ssize_t w = send(d->dst->fd, buf, len, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (w < 0) {
            if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
                close_conn(c);
                return;
            }
            d->dst->blocked = errno != EINTR;
            w = 0;
        } else if ((size_t)w < len) {
            d->dst->blocked = true;
        }
        if ((size_t)w == len)
            return;
        buf += w;
        len -= w;
    }
    struct chunk *k = xmalloc(sizeof *k + len);
    k->next = NULL;
    k->deadline = deadline;
    k->len = len;
    k->off = 0;
    k->eof = eof;
    if (len)
        memcpy(k->data, buf, len);
    if (d->tail)
        d->tail->next = k;
    else
        d->head = k;
    d->tail = k;
    d->queued += len;
    if (d->head == k) {
        if (due(deadline))
            flush(d);
        else
            schedule(d);
    }
}

static void read_from(struct dir *d)
{
    struct conn *c = d->conn;
    /* A few reads per event for bulk transfers; level-triggered epoll reports the rest. */
    for (int i = 0; i < 4 && !c->closed && may_read(d); i++) {
        ssize_t n = recv(d->src->fd, readbuf, READ_SIZE, 0);
        if (n > 0) {
            if (d == &c->up)
                bytes_up += n;
            else
                bytes_down += n;
            push(d, readbuf, n, false);
            if ((size_t)n < READ_SIZE)
                break;
        } else if (n == 0) {
            d->src->eof_read = true;
            push(d, NULL, 0, true);
            break;
        } else if (errno == EINTR) {
            continue;
        } else {
            if (errno != EAGAIN && errno != EWOULDBLOCK)
                close_conn(c); /* ECONNRESET and friends: both sides go */
            break;
        }
    }
}

static void set_nodelay(int fd)
{
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

/* Starts a non-blocking connect to c->addr or the addresses after it; 0 or an errno. */
static int start_connect(struct conn *c)
{
    int error = EHOSTUNREACH;
    for (; c->addr; c->addr = c->addr->ai_next) {
        const struct addrinfo *a = c->addr;
        int fd = socket(a->ai_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
        if (fd < 0) {
            error = errno;
            continue;
        }
        set_nodelay(fd);
        if (connect(fd, a->ai_addr, a->ai_addrlen) == 0 || errno == EINPROGRESS) {
            c->upstream.fd = fd; /* completion (or failure) shows as EPOLLOUT */
            c->upstream.connecting = true;
            c->upstream.events = 0;
            return 0;
        }
        error = errno;
        close(fd);
    }
    return error;
}

static void cannot_reach(const char *why)
{
    fprintf(stderr, "delay-proxy: cannot reach %s:%d: %s\n", target_host, target_port, why);
}

static void finish_connect(struct conn *c)
{
    int error = 0;
    socklen_t len = sizeof error;
    if (getsockopt(c->upstream.fd, SOL_SOCKET, SO_ERROR, &error, &len) < 0)
        error = errno;
    if (error == 0) {
        c->upstream.connecting = false;
        flush(&c->up); /* bytes the client sent meanwhile */
        update_events(c);
        return;
    }
    close(c->upstream.fd); /* try the next address, if any */
    c->upstream.fd = -1;
    c->upstream.connecting = false;
    c->addr = c->addr->ai_next;
    if (c->addr && (error = start_connect(c)) == 0) {
        update_events(c);
        return;
    }
    cannot_reach(strerror(error));
    close_conn(c);
}

static void accept_all(struct endpoint *listener)
{
    for (;;) {
        int fd = accept4(listener->fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0) {
            if (errno == EINTR || errno == ECONNABORTED)
                continue;
            if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM) {
                /* out of descriptors: wait until a connection closes */
                fprintf(stderr, "delay-proxy: accept: %s\n", strerror(errno));
                set_accepting(false);
            }
            return;
        }
        connections++;
        set_nodelay(fd);
        struct conn *c = calloc(1, sizeof *c);
        if (!c) {
            close(fd);
            continue;
        }
        c->client = (struct endpoint){.kind = SOCKET, .fd = fd, .conn = c};
        c->upstream = (struct endpoint){.kind = SOCKET, .fd = -1, .conn = c};
        c->up = (struct dir){.src = &c->client, .dst = &c->upstream, .conn = c, .heap_index = -1,
                             .start_after = now + 2 * delay_ns};
        c->down = (struct dir){.src = &c->upstream, .dst = &c->client, .conn = c, .heap_index = -1};
        c->addr = target_addrs;
        int error = target_addrs ? start_connect(c) : 0;
        if (!target_addrs || error) {
            cannot_reach(target_addrs ? strerror(error) : target_error);
            close(fd);
            free(c);
            continue;
        }
        update_events(c);
    }
}

static void on_socket_event(struct endpoint *e, uint32_t events)
{
    struct conn *c = e->conn;
    if (c->closed)
        return;
    if (e->connecting) {
        finish_connect(c);
        return;
    }
    if (events & EPOLLERR) { /* reset or failed: both sides go */
        close_conn(c);
        return;
    }
    bool is_client = e == &c->client;
    struct dir *in = is_client ? &c->up : &c->down;   /* read from e */
    struct dir *out = is_client ? &c->down : &c->up;  /* written to e */
    if ((events & (EPOLLOUT | EPOLLHUP)) && e->blocked) {
        e->blocked = false;
        flush(out);
        if (c->closed)
            return;
    }
    if (events & (EPOLLIN | EPOLLHUP))
        read_from(in);
    update_events(c);
}

/* MARK: the event loop */

/* epoll_pwait2 with a timeout in nanoseconds (-1: none); epoll_wait rounded up without it. */
static int wait_events(struct epoll_event *events, int64_t timeout_ns)
{
#ifdef HAVE_EPOLL_PWAIT2
    static bool pwait2 = true;
    if (pwait2) {
        struct timespec ts = {.tv_sec = timeout_ns / 1000000000, .tv_nsec = timeout_ns % 1000000000};
        int n = epoll_pwait2(epfd, events, MAX_EVENTS, timeout_ns < 0 ? NULL : &ts, NULL);
        if (n >= 0 || (errno != ENOSYS && errno != EPERM))
            return n;
        pwait2 = false; /* an old kernel, or a seccomp filter that does not know it */
    }
#endif
    int ms = -1;
    if (timeout_ns >= 0)
        ms = timeout_ns >= (int64_t)INT_MAX * 1000000 ? INT_MAX : (int)((timeout_ns + 999999) / 1000000);
    return epoll_wait(epfd, events, MAX_EVENTS, ms);
}

static void usage(FILE *out)
{
    fputs("usage: delay-proxy LISTEN_PORT TARGET_HOST:TARGET_PORT --delay-ms D [--listen-host 127.0.0.1]\n", out);
}

static void bad_usage(const char *what, const char *arg)
{
    usage(stderr);
    fprintf(stderr, "delay-proxy: error: %s%s\n", what, arg ? arg : "");
    exit(2);
}

static int parse_port(const char *s)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < 0 || v > 65535)
        bad_usage("invalid port: ", s);
    return (int)v;
}

/* --name VALUE or --name=VALUE, or an unambiguous prefix of the name (as argparse allows). */
static bool option(char **argv, int *i, int argc, const char *name, const char **value)
{
    const char *arg = argv[*i];
    size_t len = strcspn(arg, "=");
    if (len < 3 || strncmp(arg, name, len) != 0)
        return false;
    if (arg[len] == '=')
        *value = arg + len + 1;
    else if (*i + 1 < argc)
        *value = argv[++*i];
    else
        bad_usage("expected one argument: ", name);
    return true;
}

int main(int argc, char **argv)
{
    const char *positional[2], *delay_arg = NULL, *listen_host = "127.0.0.1", *value;
    int npositional = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            usage(stdout);
            return 0;
        } else if (option(argv, &i, argc, "--delay-ms", &value)) {
            delay_arg = value;
        } else if (option(argv, &i, argc, "--listen-host", &value)) {
            listen_host = value;
        } else if (argv[i][0] == '-' && argv[i][1] && !(argv[i][1] >= '0' && argv[i][1] <= '9')) {
            bad_usage("unrecognized argument: ", argv[i]);
        } else if (npositional < 2) {
            positional[npositional++] = argv[i];
        } else {
            bad_usage("unrecognized argument: ", argv[i]);
        }
    }
    if (npositional < 2 || !delay_arg)
        bad_usage("the following arguments are required: LISTEN_PORT, TARGET_HOST:TARGET_PORT, --delay-ms", NULL);
    int listen_port = parse_port(positional[0]);
    char *end;
    double delay_ms = strtod(delay_arg, &end);
    if (end == delay_arg || *end || delay_ms != delay_ms || delay_ms > 1e9 || delay_ms < -1e9)
        bad_usage("invalid --delay-ms: ", delay_arg);
    delay_ns = delay_ms > 0 ? (int64_t)(delay_ms * 1e6 + 0.5) : 0;
    window_ns = delay_ns / 10 < 100000 ? delay_ns / 10 : 100000;

    /* HOST:PORT split at the last colon; [v6] brackets dropped. */
    char *target = strdup(positional[1]);
    char *colon = strrchr(target, ':');
    if (!colon)
        bad_usage("invalid target (HOST:PORT): ", positional[1]);
    *colon = '\0';
    target_port = parse_port(colon + 1);
    target_host = target;
    if (target[0] == '[' && colon > target && colon[-1] == ']') {
        colon[-1] = '\0';
        target_host = target + 1;
    }
    char port_text[8];
    snprintf(port_text, sizeof port_text, "%d", target_port);
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM};
    int gai = getaddrinfo(*target_host ? target_host : NULL, port_text, &hints, &target_addrs);
    if (gai) { /* every connection will say so, as the Python version does */
        target_addrs = NULL;
        target_error = gai_strerror(gai);
    }

    signal(SIGPIPE, SIG_IGN);
    sigset_t stop;
    sigemptyset(&stop);
    sigaddset(&stop, SIGTERM);
    sigaddset(&stop, SIGINT);
    sigprocmask(SIG_BLOCK, &stop, NULL);
    prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL); /* wake up within microseconds of a deadline */
    epfd = epoll_create1(EPOLL_CLOEXEC);
    struct endpoint signals = {.kind = SIGNALS, .fd = signalfd(-1, &stop, SFD_NONBLOCK | SFD_CLOEXEC)};
    if (epfd < 0 || signals.fd < 0) {
        fprintf(stderr, "delay-proxy: %s\n", strerror(errno));
        return 1;
    }
    watch(&signals, EPOLLIN);

    /* Listen on every address of the listen host, as asyncio's create_server does. */
    struct addrinfo *local;
    hints.ai_flags = AI_PASSIVE;
    snprintf(port_text, sizeof port_text, "%d", listen_port);
    gai = getaddrinfo(*listen_host ? listen_host : NULL, port_text, &hints, &local);
    if (gai) {
        fprintf(stderr, "delay-proxy: cannot listen on %s:%d: %s\n", listen_host, listen_port, gai_strerror(gai));
        return 1;
    }
    for (struct addrinfo *a = local; a && listener_count < MAX_LISTENERS; a = a->ai_next) {
        int fd = socket(a->ai_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0), one = 1;
        if (fd < 0)
            continue;
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        if (a->ai_family == AF_INET6)
            setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof one);
        set_nodelay(fd);
        if (bind(fd, a->ai_addr, a->ai_addrlen) < 0 || listen(fd, 1024) < 0) {
            fprintf(stderr, "delay-proxy: cannot listen on %s:%d: %s\n", listen_host, listen_port, strerror(errno));
            return 1;
        }
        listeners[listener_count++] = (struct endpoint){.kind = LISTENER, .fd = fd};
    }
    freeaddrinfo(local);
    if (!listener_count) {
        fprintf(stderr, "delay-proxy: cannot listen on %s:%d\n", listen_host, listen_port);
        return 1;
    }
    set_accepting(true);
    printf("delay-proxy: listening on %s:%d -> %s:%d, one-way delay %g ms\n", listen_host, listen_port,
           target_host, target_port, delay_ms);
    fflush(stdout);

    struct epoll_event events[MAX_EVENTS];
    for (;;) {
        /* Directions whose head is due. */
        now = monotonic_ns();
        while (heap_len && due(heap[0]->key)) {
            struct dir *d = heap[0];
            heap_remove(d);
            flush(d);
        }
        while (dead) {
            struct conn *c = dead;
            dead = c->next_dead;
            free(c);
        }
        int64_t timeout = -1;
        if (heap_len) {
            timeout = heap[0]->key - monotonic_ns();
            if (timeout < 0)
                timeout = 0;
        }
        int n = wait_events(events, timeout);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            fprintf(stderr, "delay-proxy: epoll: %s\n", strerror(errno));
            return 1;
        }
        now = monotonic_ns(); /* the arrival time of what this batch reads */
        for (int i = 0; i < n; i++) {
            struct endpoint *e = events[i].data.ptr;
            if (e->kind == SOCKET) {
                on_socket_event(e, events[i].events);
            } else if (e->kind == LISTENER) {
                accept_all(e);
            } else {
                fprintf(stderr, "delay-proxy: %llu connections, %llu bytes up, %llu bytes down\n", connections,
                        bytes_up, bytes_down);
                return 0;
            }
        }
    }
}
