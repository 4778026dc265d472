// glibc's malloc.h, which the Glibc module does not export: malloc_trim, for the TUI to hand a
// large body's freed pages back to the system.
#include <malloc.h>
