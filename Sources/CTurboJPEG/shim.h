#ifndef PIPCAM_CTURBOJPEG_SHIM_H
#define PIPCAM_CTURBOJPEG_SHIM_H
#include <turbojpeg.h>
#endif
