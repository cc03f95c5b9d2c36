// The system SQLite for non-Apple platforms (Apple platforms use the SDK's SQLite3 module).
#include <sqlite3.h>
