"""The load-test kit behind `make load` (loadtests/run.py): keys, a traffic mix for locust, a report.

The over-rate free client's requests are reported under two names, by answer, so its 429s can be
counted from locust's stats (the report, the summary line and tests/e2e/test_load.py read them).
"""

FREE_200 = "free plan: /3/movie/{id}"
FREE_429 = "free plan: 429"
