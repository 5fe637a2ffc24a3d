/*
 * fdpass: the two socket calls Node has no public API for (nodejs/node#53391),
 * so Verdict can hand clamd the descriptor of a file it opened (clamd's FILDES).
 *
 *   connectUnix(path)              -> fd of a connected, non-blocking AF_UNIX stream socket
 *   sendFd(socketFd, fileFd, data) -> bytes of `data` sent, with `fileFd` attached as
 *                                     SCM_RIGHTS (fileFd < 0: plain data)
 *
 * Both are one non-blocking system call on the calling thread: no libuv loop, no
 * threads, no global state, so the module is safe in worker threads (a context-aware
 * N-API module). Node's net.Socket({ fd }) then owns the connected socket for all
 * reading and writing; sendFd is used only while that socket's own write queue is
 * empty, so the bytes stay in order (electron/engine/clamd/clamd-wire.ts).
 * Failures throw an Error with `errno` (positive) and `syscall`; the loader
 * (index.cjs) adds `code`, the errno's name, as Node's own errors carry it.
 */
#define NAPI_VERSION 8
#include <node_api.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#ifndef MSG_NOSIGNAL
#define MSG_NOSIGNAL 0 /* macOS: Node ignores SIGPIPE anyway */
#endif

/* Throws an Error carrying errno and the failed call; returns NULL for the caller to return. */
static napi_value throw_errno(napi_env env, int error, const char *syscall) {
  char text[160];
  snprintf(text, sizeof text, "%s failed: %s", syscall, strerror(error));
  napi_value message, err, number, call;
  if (napi_create_string_utf8(env, text, NAPI_AUTO_LENGTH, &message) != napi_ok ||
      napi_create_error(env, NULL, message, &err) != napi_ok) {
    napi_throw_error(env, NULL, text);
    return NULL;
  }
  napi_create_int32(env, error, &number);
  napi_create_string_utf8(env, syscall, NAPI_AUTO_LENGTH, &call);
  napi_set_named_property(env, err, "errno", number);
  napi_set_named_property(env, err, "syscall", call);
  napi_throw(env, err);
  return NULL;
}

static napi_value throw_type(napi_env env, const char *text) {
  napi_throw_type_error(env, "ERR_INVALID_ARG_TYPE", text);
  return NULL;
}

/* An argument that must be a whole number that fits an int. */
static int int_arg(napi_env env, napi_value value, int *out) {
  napi_valuetype type;
  if (napi_typeof(env, value, &type) != napi_ok || type != napi_number) return 0;
  double number;
  if (napi_get_value_double(env, value, &number) != napi_ok) return 0;
  if (number != (double)(int)number) return 0;
  *out = (int)number;
  return 1;
}

static int set_flags(int fd) {
  int fdflags = fcntl(fd, F_GETFD);
  int flflags = fcntl(fd, F_GETFL);
  if (fdflags < 0 || flflags < 0) return -1;
  if (fcntl(fd, F_SETFD, fdflags | FD_CLOEXEC) < 0) return -1;
  return fcntl(fd, F_SETFL, flflags | O_NONBLOCK);
}

/*
 * connectUnix(path: string | Buffer): number. Non-blocking, so it never waits here: a
 * clamd whose listen queue is full gives EAGAIN and the caller tries again later.
 * A Buffer path keeps socket paths that are not valid UTF-8.
 */
static napi_value connect_unix(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 1) return throw_type(env, "connectUnix(path) needs a path");
  struct sockaddr_un address;
  memset(&address, 0, sizeof address);
  address.sun_family = AF_UNIX;
  size_t length = 0;
  bool is_buffer = false;
  napi_is_buffer(env, argv[0], &is_buffer);
  if (is_buffer) {
    void *data;
    if (napi_get_buffer_info(env, argv[0], &data, &length) != napi_ok) return throw_type(env, "unreadable path buffer");
    if (length >= sizeof address.sun_path) return throw_errno(env, ENAMETOOLONG, "connect");
    memcpy(address.sun_path, data, length);
  } else {
    napi_valuetype type;
    napi_typeof(env, argv[0], &type);
    if (type != napi_string) return throw_type(env, "connectUnix(path): path must be a string or a Buffer");
    if (napi_get_value_string_utf8(env, argv[0], NULL, 0, &length) != napi_ok) return throw_type(env, "unreadable path");
    if (length >= sizeof address.sun_path) return throw_errno(env, ENAMETOOLONG, "connect");
    napi_get_value_string_utf8(env, argv[0], address.sun_path, sizeof address.sun_path, &length);
  }
  if (length == 0 || memchr(address.sun_path, 0, length) != NULL) return throw_type(env, "connectUnix(path): an empty path or one holding a NUL byte");

  int fd = socket(AF_UNIX, SOCK_STREAM, 0);
  if (fd < 0) return throw_errno(env, errno, "socket");
  if (set_flags(fd) < 0) {
    int error = errno;
    close(fd);
    return throw_errno(env, error, "fcntl");
  }
  if (connect(fd, (struct sockaddr *)&address, sizeof address) < 0) {
    int error = errno;
    close(fd);
    /* Unfinished (a full listen queue, or interrupted): the same answer everywhere, and the
       caller tries again with a new socket (a non-blocking connect is not simply repeated). */
    if (error == EINPROGRESS || error == EWOULDBLOCK || error == EINTR) error = EAGAIN;
    return throw_errno(env, error, "connect");
  }
  napi_value result;
  napi_create_int32(env, fd, &result);
  return result;
}

/*
 * sendFd(socketFd: number, fileFd: number, data: Buffer): number. One sendmsg() with
 * MSG_DONTWAIT, so it never blocks even on a blocking socket; EINTR is retried here,
 * EAGAIN is thrown for the caller to retry once the socket drains. The descriptor
 * travels with the first byte, so a short write (rare with a few bytes) still
 * delivered it: the caller sends the rest with fileFd -1.
 */
static napi_value send_fd(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3];
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 3) return throw_type(env, "sendFd(socketFd, fileFd, data) needs three arguments");
  int socket_fd, file_fd;
  if (!int_arg(env, argv[0], &socket_fd) || socket_fd < 0) return throw_type(env, "sendFd: socketFd must be a descriptor number");
  if (!int_arg(env, argv[1], &file_fd)) return throw_type(env, "sendFd: fileFd must be a descriptor number (or -1)");
  bool is_buffer = false;
  void *data = NULL;
  size_t length = 0;
  if (napi_is_buffer(env, argv[2], &is_buffer) != napi_ok || !is_buffer || napi_get_buffer_info(env, argv[2], &data, &length) != napi_ok) {
    return throw_type(env, "sendFd: data must be a Buffer");
  }
  /* Ancillary data needs at least one byte of real data to travel with. */
  if (length == 0) return throw_type(env, "sendFd: data must hold at least one byte");

  struct iovec iov = {.iov_base = data, .iov_len = length};
  struct msghdr message;
  memset(&message, 0, sizeof message);
  message.msg_iov = &iov;
  message.msg_iovlen = 1;
  union {
    char space[CMSG_SPACE(sizeof(int))];
    struct cmsghdr align;
  } control;
  if (file_fd >= 0) {
    memset(&control, 0, sizeof control);
    message.msg_control = control.space;
    message.msg_controllen = sizeof control.space;
    struct cmsghdr *header = CMSG_FIRSTHDR(&message);
    header->cmsg_level = SOL_SOCKET;
    header->cmsg_type = SCM_RIGHTS;
    header->cmsg_len = CMSG_LEN(sizeof(int));
    memcpy(CMSG_DATA(header), &file_fd, sizeof(int));
  }
  ssize_t sent;
  do {
    sent = sendmsg(socket_fd, &message, MSG_DONTWAIT | MSG_NOSIGNAL);
  } while (sent < 0 && errno == EINTR);
  if (sent < 0) return throw_errno(env, errno == EWOULDBLOCK ? EAGAIN : errno, "sendmsg");
  napi_value result;
  napi_create_int64(env, (int64_t)sent, &result);
  return result;
}

NAPI_MODULE_INIT() {
  napi_value connect_fn, send_fn;
  if (napi_create_function(env, "connectUnix", NAPI_AUTO_LENGTH, connect_unix, NULL, &connect_fn) != napi_ok ||
      napi_create_function(env, "sendFd", NAPI_AUTO_LENGTH, send_fd, NULL, &send_fn) != napi_ok) {
    return NULL;
  }
  napi_set_named_property(env, exports, "connectUnix", connect_fn);
  napi_set_named_property(env, exports, "sendFd", send_fn);
  return exports;
}
