// The system zlib (every Linux and macOS has it): tablefmt reads gzip-compressed input through it.
#include <zlib.h>
