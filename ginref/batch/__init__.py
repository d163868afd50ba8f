"""The batch: many records read, checked in parallel and reported in input order.

:func:`verify` runs a batch in worker processes (or in this process), and
:func:`~ginref.batch.cluster.verify_on` the same batch on a Dask cluster; each gives one
:class:`RecordResult` per record, which :class:`BatchSummary` counts.
"""

from __future__ import annotations

from ginref.batch.results import BatchSummary, RecordResult, Status, check_record
from ginref.batch.run import default_jobs, inputs_without_records, run_batch, verify
from ginref.referee.findings import FindingRow

__all__ = [
    "BatchSummary",
    "FindingRow",
    "RecordResult",
    "Status",
    "check_record",
    "default_jobs",
    "inputs_without_records",
    "run_batch",
    "verify",
]
