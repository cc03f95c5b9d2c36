// The system libpq, PostgreSQL's C client library (its include directory comes from pkg-config).
#include <libpq-fe.h>
