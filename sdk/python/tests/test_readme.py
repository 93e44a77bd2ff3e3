"""The README's quick start, run as written against the server under test."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import unittest
from pathlib import Path

from .support import needs_platform

SDK_DIR = Path(__file__).resolve().parent.parent


def quick_start() -> str:
    readme = (SDK_DIR / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```python\n(.*?)```", section, re.S)
    assert len(blocks) == 1, "the quick start is one python block"
    return str(blocks[0])


@needs_platform
class ReadmeTest(unittest.TestCase):
    def test_the_quick_start_runs_as_written(self) -> None:
        env = {**os.environ, "PYTHONPATH": str(SDK_DIR)}
        result = subprocess.run([sys.executable, "-c", quick_start()], capture_output=True, text=True, env=env, timeout=300)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("created scenario", result.stdout)
        self.assertIn("persona: Hi, I am Jane. Shall we begin?", result.stdout)
        self.assertIn("ended: participant_left", result.stdout)
        self.assertRegex(result.stdout, r"404 resource_not_found req_")


if __name__ == "__main__":
    unittest.main()
