#ifndef PIPCAM_CX11_SHIM_H
#define PIPCAM_CX11_SHIM_H
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/Xatom.h>
#include <X11/keysym.h>
#include <X11/XKBlib.h>
#include <X11/extensions/XShm.h>
#include <X11/extensions/shape.h>
#include <X11/extensions/Xinerama.h>
#include <X11/extensions/Xrandr.h>
#include <sys/ipc.h>
#include <sys/shm.h>

/* XDestroyImage is a macro over a function pointer: Swift cannot call it. */
static inline int CX11_DestroyImage(XImage *image) { return XDestroyImage(image); }

/* XShm completion events have a per-display type: base + ShmCompletion. */
static inline int CX11_ShmCompletionOffset(void) { return ShmCompletion; }

/* ImageByteOrder is a macro over Display's private fields. */
static inline int CX11_ImageByteOrder(Display *display) { return ImageByteOrder(display); }

static inline void *CX11_ShmAtNull(int shmid) { return shmat(shmid, NULL, 0); }
static inline int CX11_ShmRemove(int shmid) { return shmctl(shmid, IPC_RMID, NULL); }
static inline int CX11_ShmGet(size_t size) { return shmget(IPC_PRIVATE, size, IPC_CREAT | 0600); }
#endif
