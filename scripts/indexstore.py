"""Reads the compiler's index store (libIndexStore from the Swift toolchain) through ctypes.

Gives, for each source file of a module, the symbols it defines and the symbols it references,
as the compiler resolved them: the layer check reads uses from here rather than guessing from text.
"""

import ctypes
import ctypes.util
import os
import shutil


class _StringRef(ctypes.Structure):
    _fields_ = [("data", ctypes.c_char_p), ("length", ctypes.c_size_t)]

    def text(self):
        return ctypes.string_at(self.data, self.length).decode("utf-8", "replace") if self.length else ""


ROLE_DECLARATION = 1 << 0
ROLE_DEFINITION = 1 << 1
ROLE_REFERENCE = 1 << 2
ROLE_IMPLICIT = 1 << 8
DEPENDENCY_RECORD = 2

_UNIT_APPLIER = ctypes.CFUNCTYPE(ctypes.c_bool, ctypes.c_void_p, _StringRef)
_DEPENDENCY_APPLIER = ctypes.CFUNCTYPE(ctypes.c_bool, ctypes.c_void_p, ctypes.c_void_p)
_OCCURRENCE_APPLIER = ctypes.CFUNCTYPE(ctypes.c_bool, ctypes.c_void_p, ctypes.c_void_p)


def _find_library():
    """libIndexStore.so next to the toolchain's swift, or $INDEXSTORE_LIB."""
    explicit = os.environ.get("INDEXSTORE_LIB")
    if explicit:
        return explicit
    swift = shutil.which("swift")
    if swift:
        lib_dir = os.path.join(os.path.dirname(os.path.realpath(swift)), "..", "lib")
        for name in ("libIndexStore.so", "libIndexStore.dylib"):
            candidate = os.path.join(lib_dir, name)
            if os.path.exists(candidate):
                return candidate
    xcode = "/Applications/Xcode.app/Contents/Developer/Toolchains/XcodeDefault.xctoolchain/usr/lib/libIndexStore.dylib"
    if os.path.exists(xcode):
        return xcode
    found = ctypes.util.find_library("IndexStore")
    if found:
        return found
    raise SystemExit("error: libIndexStore not found; set INDEXSTORE_LIB to its path")


class IndexStore:
    """One index store directory (`.build/debug/index/store`)."""

    def __init__(self, path):
        lib = ctypes.CDLL(_find_library())
        self._lib = lib
        lib.indexstore_store_create.restype = ctypes.c_void_p
        lib.indexstore_store_create.argtypes = [ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p)]
        lib.indexstore_error_get_description.restype = ctypes.c_char_p
        lib.indexstore_error_get_description.argtypes = [ctypes.c_void_p]
        lib.indexstore_store_units_apply_f.argtypes = [ctypes.c_void_p, ctypes.c_uint, ctypes.c_void_p, _UNIT_APPLIER]
        lib.indexstore_unit_reader_create.restype = ctypes.c_void_p
        lib.indexstore_unit_reader_create.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p)]
        lib.indexstore_unit_reader_dispose.argtypes = [ctypes.c_void_p]
        lib.indexstore_unit_reader_get_main_file.restype = _StringRef
        lib.indexstore_unit_reader_get_main_file.argtypes = [ctypes.c_void_p]
        lib.indexstore_unit_reader_get_module_name.restype = _StringRef
        lib.indexstore_unit_reader_get_module_name.argtypes = [ctypes.c_void_p]
        lib.indexstore_unit_reader_dependencies_apply_f.argtypes = [ctypes.c_void_p, ctypes.c_void_p, _DEPENDENCY_APPLIER]
        lib.indexstore_unit_dependency_get_kind.restype = ctypes.c_int
        lib.indexstore_unit_dependency_get_kind.argtypes = [ctypes.c_void_p]
        lib.indexstore_unit_dependency_get_name.restype = _StringRef
        lib.indexstore_unit_dependency_get_name.argtypes = [ctypes.c_void_p]
        lib.indexstore_unit_dependency_get_filepath.restype = _StringRef
        lib.indexstore_unit_dependency_get_filepath.argtypes = [ctypes.c_void_p]
        lib.indexstore_record_reader_create.restype = ctypes.c_void_p
        lib.indexstore_record_reader_create.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p)]
        lib.indexstore_record_reader_dispose.argtypes = [ctypes.c_void_p]
        lib.indexstore_record_reader_occurrences_apply_f.argtypes = [ctypes.c_void_p, ctypes.c_void_p, _OCCURRENCE_APPLIER]
        lib.indexstore_occurrence_get_symbol.restype = ctypes.c_void_p
        lib.indexstore_occurrence_get_symbol.argtypes = [ctypes.c_void_p]
        lib.indexstore_occurrence_get_roles.restype = ctypes.c_uint64
        lib.indexstore_occurrence_get_roles.argtypes = [ctypes.c_void_p]
        lib.indexstore_occurrence_get_line_col.argtypes = [
            ctypes.c_void_p, ctypes.POINTER(ctypes.c_uint), ctypes.POINTER(ctypes.c_uint)]
        lib.indexstore_symbol_get_usr.restype = _StringRef
        lib.indexstore_symbol_get_usr.argtypes = [ctypes.c_void_p]
        lib.indexstore_symbol_get_name.restype = _StringRef
        lib.indexstore_symbol_get_name.argtypes = [ctypes.c_void_p]
        error = ctypes.c_void_p()
        self._store = lib.indexstore_store_create(path.encode(), ctypes.byref(error))
        if not self._store:
            raise SystemExit("error: cannot open index store %s: %s" % (
                path, lib.indexstore_error_get_description(error).decode()))

    def unit_names(self):
        names = []

        def apply(_context, name):
            names.append(name.text())
            return True

        self._lib.indexstore_store_units_apply_f(self._store, 0, None, _UNIT_APPLIER(apply))
        return names

    def unit(self, name):
        """(main file, module name, [record names]) of one unit, or None if it cannot be read."""
        lib = self._lib
        error = ctypes.c_void_p()
        reader = lib.indexstore_unit_reader_create(self._store, name.encode(), ctypes.byref(error))
        if not reader:
            return None
        try:
            main_file = lib.indexstore_unit_reader_get_main_file(reader).text()
            module = lib.indexstore_unit_reader_get_module_name(reader).text()
            records = []

            def apply(_context, dependency):
                if lib.indexstore_unit_dependency_get_kind(dependency) == DEPENDENCY_RECORD:
                    records.append((lib.indexstore_unit_dependency_get_name(dependency).text(),
                                    lib.indexstore_unit_dependency_get_filepath(dependency).text()))
                return True

            lib.indexstore_unit_reader_dependencies_apply_f(reader, None, _DEPENDENCY_APPLIER(apply))
            return main_file, module, records
        finally:
            lib.indexstore_unit_reader_dispose(reader)

    def occurrences(self, record_name):
        """[(usr, name, roles, line)] of one record."""
        lib = self._lib
        error = ctypes.c_void_p()
        reader = lib.indexstore_record_reader_create(self._store, record_name.encode(), ctypes.byref(error))
        if not reader:
            return []
        found = []
        line = ctypes.c_uint()
        column = ctypes.c_uint()
        try:
            def apply(_context, occurrence):
                symbol = lib.indexstore_occurrence_get_symbol(occurrence)
                lib.indexstore_occurrence_get_line_col(occurrence, ctypes.byref(line), ctypes.byref(column))
                found.append((lib.indexstore_symbol_get_usr(symbol).text(),
                              lib.indexstore_symbol_get_name(symbol).text(),
                              lib.indexstore_occurrence_get_roles(occurrence),
                              line.value))
                return True

            lib.indexstore_record_reader_occurrences_apply_f(reader, None, _OCCURRENCE_APPLIER(apply))
            return found
        finally:
            lib.indexstore_record_reader_dispose(reader)
