#!/usr/bin/env python3
"""Tests of scripts/check-architecture.py on made-up files and uses (no build needed).

Run: python3 scripts/test_check_architecture.py
"""

import collections
import importlib.util
import os
import tempfile
import unittest

_path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "check-architecture.py")
_spec = importlib.util.spec_from_file_location("check_architecture", _path)
check = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(check)


def folder(path):
    return path.split("/")[0]


class LayerTests(unittest.TestCase):
    def uses(self, pairs):
        """files, defined and used for uses given as (user file, defining file, name)."""
        files = sorted({user for user, _, _ in pairs} | {target for _, target, _ in pairs})
        defined = {}
        used = collections.defaultdict(list)
        for number, (user, target, name) in enumerate(pairs):
            usr = "usr:%s:%s" % (target, name)
            defined[usr] = target
            used[user].append((usr, name, number + 1))
        return files, defined, used

    def upward(self, pairs):
        files, defined, used = self.uses(pairs)
        _, upward = check.file_uses(files, defined, used, folder, check.layer_of_folder())
        return [(path, name) for path, _, name, _ in upward]

    def test_a_lower_layer_naming_an_upper_one_fails(self):
        self.assertEqual(
            self.upward([("Tables/EntityTable.swift", "Context/ManagedContext.swift", "ManagedContext")]),
            [("Tables/EntityTable.swift", "ManagedContext")])
        self.assertEqual(
            self.upward([("Errors/PersistenceError.swift", "Objects/ManagedObject.swift", "ManagedObject")]),
            [("Errors/PersistenceError.swift", "ManagedObject")])

    def test_an_upper_layer_may_use_every_lower_one(self):
        self.assertEqual(self.upward([
            ("Container/PersistentContainer.swift", "Context/ManagedContext.swift", "ManagedContext"),
            ("Context/ManagedContext.swift", "CommitEngine/StoreCoordinator.swift", "StoreCoordinator"),
            ("QueryEngine/FetchScan.swift", "Tables/EntityTable.swift", "EntityTable"),
            ("Stores/InMemoryStore.swift", "Values/ObjectID.swift", "ObjectID"),
        ]), [])

    def test_the_object_graph_loop_is_allowed(self):
        self.assertEqual(self.upward([
            ("Objects/ManagedObject.swift", "Context/ManagedContext.swift", "ManagedContext"),
            ("Context/ManagedContext.swift", "Objects/ManagedObject.swift", "ManagedObject"),
            ("Fetching/FetchRequest.swift", "Objects/ManagedObject.swift", "ManagedObject"),
        ]), [])

    def test_stores_and_the_query_language_do_not_meet(self):
        self.assertEqual(
            self.upward([
                ("Stores/StoreFile.swift", "Predicates/PredicateExpression.swift", "PredicateExpression"),
                ("Predicates/PredicateParser.swift", "Stores/StoreFile.swift", "StoreFile"),
                ("Stores/StoreFile.swift", "QueryEngine/RowProgram.swift", "RowProgram"),
                ("QueryEngine/FetchScan.swift", "Stores/StoreFile.swift", "StoreFile"),
                ("Predicates/PredicateParser.swift", "Tables/EntityTable.swift", "EntityTable"),
            ]),
            [("Predicates/PredicateParser.swift", "StoreFile"), ("Predicates/PredicateParser.swift", "EntityTable"),
             ("QueryEngine/FetchScan.swift", "StoreFile"), ("Stores/StoreFile.swift", "PredicateExpression"),
             ("Stores/StoreFile.swift", "RowProgram")])

    def test_each_name_is_reported_once_per_file(self):
        pairs = [("Tables/A.swift", "Context/B.swift", "B")] * 3
        self.assertEqual(len(self.upward(pairs)), 1)


class CycleTests(unittest.TestCase):
    def test_the_largest_strongly_connected_set(self):
        edges = collections.defaultdict(set, {
            "a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": {"e"}, "e": {"d"}, "f": {"a"}})
        self.assertEqual(sorted(check.largest_cycle(list("abcdef"), edges)), ["a", "b", "c"])

    def test_no_cycle_gives_single_files(self):
        edges = collections.defaultdict(set, {"a": {"b"}, "b": {"c"}})
        self.assertEqual(len(check.largest_cycle(list("abc"), edges)), 1)

    def test_a_long_chain_does_not_recurse(self):
        count = 50_000
        names = ["f%d" % index for index in range(count)]
        edges = collections.defaultdict(set, {names[index]: {names[index + 1]} for index in range(count - 1)})
        edges[names[-1]].add(names[0])
        self.assertEqual(len(check.largest_cycle(names, edges)), count)


class NamingTests(unittest.TestCase):
    def problems(self, name, text):
        with tempfile.TemporaryDirectory() as directory:
            path = os.path.join(directory, name)
            with open(path, "w", encoding="utf-8") as source:
                source.write(text)
            return check.naming_problems(path, name)

    def test_a_capability_file_extends_only_its_type(self):
        self.assertEqual(self.problems("Store+Frames.swift", "extension Store {\n}\n"), [])
        self.assertEqual(
            len(self.problems("Store+Frames.swift", "extension Store {\n}\n\nstruct Frame {\n}\n")), 1)
        self.assertEqual(
            len(self.problems("Store+Frames.swift", "extension Store {\n}\n\nextension Array {\n}\n")), 1)
        self.assertEqual(
            self.problems("Store+Frames.swift", "extension Store {\n}\n\nprivate struct Helper {\n}\n"), [])

    def test_a_type_file_declares_its_type_and_no_other_public_one(self):
        self.assertEqual(self.problems("Store.swift", "public final class Store {\n}\n\nstruct Part {\n}\n"), [])
        self.assertEqual(
            len(self.problems("Store.swift", "public final class Store {\n}\n\npublic struct Other {\n}\n")), 1)
        self.assertEqual(len(self.problems("Store.swift", "struct Other {\n}\n")), 1)

    def test_a_source_file_is_not_named_like_a_test(self):
        self.assertEqual(len(self.problems("ValueTest.swift", "class ValueTest {\n}\n")), 1)


if __name__ == "__main__":
    unittest.main()
