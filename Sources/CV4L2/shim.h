#ifndef PIPCAM_CV4L2_SHIM_H
#define PIPCAM_CV4L2_SHIM_H
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/types.h>
#include <linux/videodev2.h>
#include <libv4l2.h>

/* Every non-void function here returns a value on every path: a missing `return` in a shim
 * like these once made v4l2_open hand Swift garbage descriptors. */

/* v4l2_open and v4l2_ioctl are variadic: Swift needs fixed-arity wrappers. */
static inline int CV4L2_open(const char *path, int flags) { return v4l2_open(path, flags); }
static inline int CV4L2_ioctl(int fd, unsigned long request, void *arg) { return v4l2_ioctl(fd, request, arg); }
static inline int CV4L2_close(int fd) { return v4l2_close(fd); }
static inline void *CV4L2_mmap(void *start, size_t length, int prot, int flags, int fd, int64_t offset) {
    return v4l2_mmap(start, length, prot, flags, fd, offset);
}
static inline int CV4L2_munmap(void *start, size_t length) { return v4l2_munmap(start, length); }
/* An ioctl straight to the driver, around libv4l2 (whose G_FMT answers from its own cache). */
static inline int CV4L2_kernel_ioctl(int fd, unsigned long request, void *arg) { return ioctl(fd, request, arg); }

/* libv4l2 prints its errors on stderr (even "dequeuing buf: Resource temporarily unavailable" for
 * every EAGAIN) unless v4l2_log_file is set; pipcam reports errors itself. LIBV4L2_LOG_FILENAME
 * still works for debugging. Returns 1 when the log was redirected. Call once, before v4l2_open. */
static inline int CV4L2_quiet_log(void) {
    if (v4l2_log_file != NULL || getenv("LIBV4L2_LOG_FILENAME") != NULL) return 0;
    v4l2_log_file = fopen("/dev/null", "we");
    return v4l2_log_file != NULL;
}

/* MAP_FAILED is a cast macro ((void *)-1). */
static inline int CV4L2_isMapFailed(const void *p) { return p == MAP_FAILED; }

/* VIDIOC_* are _IOR/_IOW/_IOWR macros over sizeof: function-like, so not importable. */
static const unsigned long CV4L2_VIDIOC_QUERYCAP = VIDIOC_QUERYCAP;
static const unsigned long CV4L2_VIDIOC_ENUM_FMT = VIDIOC_ENUM_FMT;
static const unsigned long CV4L2_VIDIOC_ENUM_FRAMESIZES = VIDIOC_ENUM_FRAMESIZES;
static const unsigned long CV4L2_VIDIOC_ENUM_FRAMEINTERVALS = VIDIOC_ENUM_FRAMEINTERVALS;
static const unsigned long CV4L2_VIDIOC_G_FMT = VIDIOC_G_FMT;
static const unsigned long CV4L2_VIDIOC_S_FMT = VIDIOC_S_FMT;
static const unsigned long CV4L2_VIDIOC_G_PARM = VIDIOC_G_PARM;
static const unsigned long CV4L2_VIDIOC_S_PARM = VIDIOC_S_PARM;
static const unsigned long CV4L2_VIDIOC_REQBUFS = VIDIOC_REQBUFS;
static const unsigned long CV4L2_VIDIOC_QUERYBUF = VIDIOC_QUERYBUF;
static const unsigned long CV4L2_VIDIOC_QBUF = VIDIOC_QBUF;
static const unsigned long CV4L2_VIDIOC_DQBUF = VIDIOC_DQBUF;
static const unsigned long CV4L2_VIDIOC_STREAMON = VIDIOC_STREAMON;
static const unsigned long CV4L2_VIDIOC_STREAMOFF = VIDIOC_STREAMOFF;
static const unsigned long CV4L2_VIDIOC_QUERYCTRL = VIDIOC_QUERYCTRL;
static const unsigned long CV4L2_VIDIOC_QUERY_EXT_CTRL = VIDIOC_QUERY_EXT_CTRL;
static const unsigned long CV4L2_VIDIOC_QUERYMENU = VIDIOC_QUERYMENU;
static const unsigned long CV4L2_VIDIOC_G_CTRL = VIDIOC_G_CTRL;
static const unsigned long CV4L2_VIDIOC_S_CTRL = VIDIOC_S_CTRL;
static const unsigned long CV4L2_VIDIOC_G_EXT_CTRLS = VIDIOC_G_EXT_CTRLS;
static const unsigned long CV4L2_VIDIOC_S_EXT_CTRLS = VIDIOC_S_EXT_CTRLS;

/* V4L2_PIX_FMT_* go through the function-like v4l2_fourcc macro. */
static const unsigned int CV4L2_PIX_FMT_YUYV = V4L2_PIX_FMT_YUYV;
static const unsigned int CV4L2_PIX_FMT_MJPEG = V4L2_PIX_FMT_MJPEG;
static const unsigned int CV4L2_PIX_FMT_JPEG = V4L2_PIX_FMT_JPEG;
static const unsigned int CV4L2_PIX_FMT_NV12 = V4L2_PIX_FMT_NV12;
static const unsigned int CV4L2_PIX_FMT_YUV420 = V4L2_PIX_FMT_YUV420;
static const unsigned int CV4L2_PIX_FMT_RGB24 = V4L2_PIX_FMT_RGB24;
static const unsigned int CV4L2_PIX_FMT_BGR32 = V4L2_PIX_FMT_BGR32;
static const unsigned int CV4L2_PIX_FMT_XBGR32 = V4L2_PIX_FMT_XBGR32;
static const unsigned int CV4L2_PIX_FMT_ABGR32 = V4L2_PIX_FMT_ABGR32;
static const unsigned int CV4L2_PIX_FMT_GREY = V4L2_PIX_FMT_GREY;

/* Flags, re-exported with a fixed C type so Swift sees one integer type for all of them. */
static const unsigned int CV4L2_CAP_VIDEO_CAPTURE = V4L2_CAP_VIDEO_CAPTURE;
static const unsigned int CV4L2_CAP_VIDEO_OUTPUT = V4L2_CAP_VIDEO_OUTPUT;
static const unsigned int CV4L2_CAP_STREAMING = V4L2_CAP_STREAMING;
static const unsigned int CV4L2_CAP_DEVICE_CAPS = V4L2_CAP_DEVICE_CAPS;
static const unsigned int CV4L2_CAP_IO_MC = V4L2_CAP_IO_MC;
static const unsigned int CV4L2_CAP_TIMEPERFRAME = V4L2_CAP_TIMEPERFRAME;
static const unsigned int CV4L2_FMT_FLAG_COMPRESSED = V4L2_FMT_FLAG_COMPRESSED;
static const unsigned int CV4L2_FMT_FLAG_EMULATED = V4L2_FMT_FLAG_EMULATED;
static const unsigned int CV4L2_BUF_FLAG_ERROR = V4L2_BUF_FLAG_ERROR;
static const unsigned int CV4L2_BUF_FLAG_TIMESTAMP_MASK = V4L2_BUF_FLAG_TIMESTAMP_MASK;
static const unsigned int CV4L2_BUF_FLAG_TIMESTAMP_MONOTONIC = V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC;
static const unsigned int CV4L2_BUF_TYPE_VIDEO_CAPTURE = V4L2_BUF_TYPE_VIDEO_CAPTURE;
static const unsigned int CV4L2_BUF_TYPE_VIDEO_OUTPUT = V4L2_BUF_TYPE_VIDEO_OUTPUT;
static const unsigned int CV4L2_MEMORY_MMAP = V4L2_MEMORY_MMAP;
static const unsigned int CV4L2_FIELD_NONE = V4L2_FIELD_NONE;
static const unsigned int CV4L2_FRMSIZE_TYPE_DISCRETE = V4L2_FRMSIZE_TYPE_DISCRETE;
static const unsigned int CV4L2_FRMSIZE_TYPE_CONTINUOUS = V4L2_FRMSIZE_TYPE_CONTINUOUS;
static const unsigned int CV4L2_FRMSIZE_TYPE_STEPWISE = V4L2_FRMSIZE_TYPE_STEPWISE;
static const unsigned int CV4L2_FRMIVAL_TYPE_DISCRETE = V4L2_FRMIVAL_TYPE_DISCRETE;
static const unsigned int CV4L2_FRMIVAL_TYPE_CONTINUOUS = V4L2_FRMIVAL_TYPE_CONTINUOUS;
static const unsigned int CV4L2_FRMIVAL_TYPE_STEPWISE = V4L2_FRMIVAL_TYPE_STEPWISE;

/* Controls: the query flags, the control flags and the types (enum v4l2_ctrl_type). */
static const unsigned int CV4L2_CTRL_FLAG_NEXT_CTRL = V4L2_CTRL_FLAG_NEXT_CTRL;
static const unsigned int CV4L2_CTRL_FLAG_NEXT_COMPOUND = V4L2_CTRL_FLAG_NEXT_COMPOUND;
static const unsigned int CV4L2_CTRL_FLAG_DISABLED = V4L2_CTRL_FLAG_DISABLED;
static const unsigned int CV4L2_CTRL_FLAG_GRABBED = V4L2_CTRL_FLAG_GRABBED;
static const unsigned int CV4L2_CTRL_FLAG_READ_ONLY = V4L2_CTRL_FLAG_READ_ONLY;
static const unsigned int CV4L2_CTRL_FLAG_INACTIVE = V4L2_CTRL_FLAG_INACTIVE;
static const unsigned int CV4L2_CTRL_FLAG_WRITE_ONLY = V4L2_CTRL_FLAG_WRITE_ONLY;
static const unsigned int CV4L2_CTRL_FLAG_VOLATILE = V4L2_CTRL_FLAG_VOLATILE;
static const unsigned int CV4L2_CTRL_TYPE_INTEGER = V4L2_CTRL_TYPE_INTEGER;
static const unsigned int CV4L2_CTRL_TYPE_BOOLEAN = V4L2_CTRL_TYPE_BOOLEAN;
static const unsigned int CV4L2_CTRL_TYPE_MENU = V4L2_CTRL_TYPE_MENU;
static const unsigned int CV4L2_CTRL_TYPE_BUTTON = V4L2_CTRL_TYPE_BUTTON;
static const unsigned int CV4L2_CTRL_TYPE_INTEGER64 = V4L2_CTRL_TYPE_INTEGER64;
static const unsigned int CV4L2_CTRL_TYPE_CTRL_CLASS = V4L2_CTRL_TYPE_CTRL_CLASS;
static const unsigned int CV4L2_CTRL_TYPE_BITMASK = V4L2_CTRL_TYPE_BITMASK;
static const unsigned int CV4L2_CTRL_TYPE_INTEGER_MENU = V4L2_CTRL_TYPE_INTEGER_MENU;
static const unsigned int CV4L2_CTRL_COMPOUND_TYPES = V4L2_CTRL_COMPOUND_TYPES;

/* Colorimetry enums, as plain integers (the fields in v4l2_pix_format are __u32). */
static const unsigned int CV4L2_COLORSPACE_DEFAULT = V4L2_COLORSPACE_DEFAULT;
static const unsigned int CV4L2_COLORSPACE_SMPTE170M = V4L2_COLORSPACE_SMPTE170M;
static const unsigned int CV4L2_COLORSPACE_REC709 = V4L2_COLORSPACE_REC709;
static const unsigned int CV4L2_COLORSPACE_SRGB = V4L2_COLORSPACE_SRGB;
static const unsigned int CV4L2_COLORSPACE_JPEG = V4L2_COLORSPACE_JPEG;
static const unsigned int CV4L2_COLORSPACE_BT2020 = V4L2_COLORSPACE_BT2020;
static const unsigned int CV4L2_COLORSPACE_470_SYSTEM_M = V4L2_COLORSPACE_470_SYSTEM_M;
static const unsigned int CV4L2_COLORSPACE_470_SYSTEM_BG = V4L2_COLORSPACE_470_SYSTEM_BG;
static const unsigned int CV4L2_YCBCR_ENC_DEFAULT = V4L2_YCBCR_ENC_DEFAULT;
static const unsigned int CV4L2_YCBCR_ENC_601 = V4L2_YCBCR_ENC_601;
static const unsigned int CV4L2_YCBCR_ENC_709 = V4L2_YCBCR_ENC_709;
static const unsigned int CV4L2_YCBCR_ENC_XV601 = V4L2_YCBCR_ENC_XV601;
static const unsigned int CV4L2_YCBCR_ENC_XV709 = V4L2_YCBCR_ENC_XV709;
static const unsigned int CV4L2_YCBCR_ENC_BT2020 = V4L2_YCBCR_ENC_BT2020;
static const unsigned int CV4L2_QUANTIZATION_DEFAULT = V4L2_QUANTIZATION_DEFAULT;
static const unsigned int CV4L2_QUANTIZATION_FULL_RANGE = V4L2_QUANTIZATION_FULL_RANGE;
static const unsigned int CV4L2_QUANTIZATION_LIM_RANGE = V4L2_QUANTIZATION_LIM_RANGE;

#endif
