"""The batch: many records read, checked in parallel and reported in input order.

:func:`verify` is the one batch iterator: it runs a batch in worker processes, in this
process, or on a Dask cluster (``on=``:class:`~ginref.batch.cluster.OnDask`), and gives one
:class:`RecordResult` per record, in input order; :func:`tally` feeds them to the tallies
that count them (:class:`BatchSummary`, the audit, the standings).
"""

from __future__ import annotations

from ginref.batch.results import Adding, BatchSummary, RecordResult, Status, check_record
from ginref.batch.run import Inputs, Tally, default_jobs, inputs_without_records, run_batch, tally, verify
from ginref.referee.findings import FindingRow

__all__ = [
    "Adding",
    "BatchSummary",
    "FindingRow",
    "Inputs",
    "RecordResult",
    "Status",
    "Tally",
    "check_record",
    "default_jobs",
    "inputs_without_records",
    "run_batch",
    "tally",
    "verify",
]
