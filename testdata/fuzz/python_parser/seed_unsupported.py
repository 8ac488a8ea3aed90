s = '\N{BULLET}' + 1j
async def f(): await g()
