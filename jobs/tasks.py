"""The one task the queue runs: a job, by id (the job row holds everything else)."""

from django_tasks import task

from .runner import job_run


@task()
def run_job(job_id: int) -> str:
    return job_run(job_id=job_id)
