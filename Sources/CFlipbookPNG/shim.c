#include "flipbook_png.h"
