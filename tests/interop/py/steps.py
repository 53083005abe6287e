"""The step runner both interop clients share (client.py on a2a-sdk 1.3.0, client_v0_3.py on
a2a-sdk 0.3.26: no SDK import here, so it runs in either virtualenv). A step is a coroutine
returning what it saw; it fails by raising StepFailed (or anything unexpected, printed in full).
One line per step; a failed step does not stop the run."""

import sys
import traceback


class StepFailed(Exception):
    pass


def ensure(cond, why):
    if not cond:
        raise StepFailed(why)


passed = 0
failed = []


async def step(name, coro):
    global passed
    try:
        saw = await coro
    except StepFailed as e:
        failed.append(name)
        print(f'FAILED {name}: {e}', flush=True)
        return
    except Exception:  # an SDK exception the step did not expect: show all of it
        failed.append(name)
        print(f'FAILED {name}: unexpected exception', flush=True)
        traceback.print_exc(file=sys.stdout)
        return
    passed += 1
    print(f'ok     {name}: {saw}', flush=True)


def summary(who, against):
    """Prints the run's last line and exits 1 when a step failed."""
    total = passed + len(failed)
    if failed:
        print(f'{who}: {len(failed)} of {total} steps FAILED against {against}: {"; ".join(failed)}', flush=True)
        sys.exit(1)
    print(f'{who}: all {total} steps passed against {against}', flush=True)
