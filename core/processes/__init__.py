"""Running the site's processes on one machine: the supervisor that restarts whatever
exits (`manage.py run_processes`) and the health check that says when no worker is
taking jobs (`manage.py check_worker`)."""
