# SPDX-License-Identifier: MIT
"""Tests of summarize_session.py's parsing, on an excerpt of the ncu CSV the
first H200 trial of suite-session.sh wrote (488d27f): ncu's ==PROF== lines
first, values in ns with thousands separators. Run with
`python3 -m unittest discover -s crates/measure/instrument-suite/gpu` (tests/python.rs
does, in `cargo test -p instrument-suite`)."""
import os
import tempfile
import unittest

import summarize_session as s

HERE = os.path.dirname(os.path.abspath(__file__))
ORDER = ["empty", "vector-add-l2", "vector-add", "copy-1gib", "fma-1ms", "fma-10ms"]


class NcuCsv(unittest.TestCase):
    def test_the_trial_file_gives_every_kernel_its_median_in_ms(self):
        got = s.ncu_medians(os.path.join(HERE, "testdata", "ncu-trial.csv"), ORDER, 2)
        self.assertEqual(sorted(got), sorted(ORDER))
        # Two launches each: "1,888" and "2,016" ns for the empty kernel.
        self.assertAlmostEqual(got["empty"][0], (1888 + 2016) / 2 * 1e-6, places=12)
        self.assertEqual(got["empty"][1:], (2, "suite_empty_kernel"))
        self.assertEqual(got["copy-1gib"][2], "suite_copy_vec4_kernel")
        self.assertAlmostEqual(got["fma-10ms"][0], 12.5, delta=0.2)

    def test_the_recorded_transcript_of_ncu_parses_the_same(self):
        # suite-session.sh keeps ncu's output as an `evidence record`
        # transcript: a metadata header, then ncu's lines and the launcher's
        # stderr in one stream.
        plain = os.path.join(HERE, "testdata", "ncu-trial.csv")
        with tempfile.TemporaryDirectory() as d:
            recorded = os.path.join(d, "ncu.csv")
            with open(recorded, "w") as f:
                f.write("# lesson: instrument-suite\n# command: ncu --csv ...\n# ---\n")
                f.write("launching 2 times each, in this order: empty\n")
                f.write(open(plain).read())
            self.assertEqual(s.ncu_medians(recorded, ORDER, 2), s.ncu_medians(plain, ORDER, 2))

    def test_units_in_every_spelling_ncu_uses(self):
        for unit, ms in [("ns", 1e-6), ("nsecond", 1e-6), ("us", 1e-3), ("usecond", 1e-3),
                         ("ms", 1.0), ("msecond", 1.0), ("s", 1e3), ("second", 1e3)]:
            self.assertEqual(s.unit_ms(unit), ms, unit)
        with self.assertRaises(ValueError):
            s.unit_ms("cycle")


class Ratios(unittest.TestCase):
    def test_a_ratio_needs_both_numbers(self):
        self.assertAlmostEqual(s.ratio(1.03, 1.0), 1.03)
        self.assertIsNone(s.ratio(None, 1.0))
        self.assertIsNone(s.ratio(1.0, None))
        self.assertIsNone(s.ratio(1.0, 0.0))


class NvbenchCompare(unittest.TestCase):
    def test_status_words_are_counted_from_the_tables_only(self):
        # The tables of the recorded nvb-pairs round 1 (b0df4ac), A/B, with
        # the summary lines under them, which carry no status cell.
        table = (
            "|   Ref Time |   Ref Noise |   Cmp Time |   Cmp Noise |     Diff |   %Diff |  Status  |\n"
            "|------------|-------------|------------|-------------|----------|---------|----------|\n"
            "|  65.379 us |       1.00% |  66.534 us |       0.97% | 1.155 us |   1.77% |  \U0001F534 SLOW  |\n"
            "- Total Matches: 1\n  - Failure (diff > min_noise):  1\n")
        same = table.replace("\U0001F534 SLOW", "\U0001F535 SAME")
        with tempfile.TemporaryDirectory() as d:
            for name, text in [("nvbench-compare-ab-1.txt", table), ("nvbench-compare-ab-2.txt", table),
                               ("nvbench-compare-aa-2.txt", same)]:
                with open(os.path.join(d, name), "w", encoding="utf-8") as f:
                    f.write(text)
            self.assertEqual(s.nvbench_compare_statuses(d, "ab"), {"SLOW": 2})
            self.assertEqual(s.nvbench_compare_statuses(d, "aa"), {"SAME": 1})


if __name__ == "__main__":
    unittest.main()
