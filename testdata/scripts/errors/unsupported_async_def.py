async def fetch():
    return 1
