# torch.utils._config_module: config settings known under a second name, declared as PyTorch 2.11
# declares them (cache_size_limit = Config(alias="torch._dynamo.config.recompile_limit")).
# install_config_module takes the aliases out of the module's globals, where kiln's C++ reads each
# setting once, and gives the module a class through which reading or writing an alias reads or
# writes the setting it names.
import sys
import types


class Config:
    def __init__(self, alias):
        self.alias = alias


def _aliased_setting(alias):
    module_name, name = alias.rsplit(".", 1)
    return sys.modules[module_name], name


class ConfigModule(types.ModuleType):
    _aliases = {}

    # Reached only for names that are not globals of the module.
    def __getattr__(self, name):
        alias = type(self)._aliases.get(name)
        if alias is None:
            raise AttributeError(f"{self.__name__}.{name} does not exist")
        module, setting = _aliased_setting(alias)
        return getattr(module, setting)

    def __setattr__(self, name, value):
        alias = type(self)._aliases.get(name)
        if alias is None:
            super().__setattr__(name, value)
        else:
            module, setting = _aliased_setting(alias)
            setattr(module, setting, value)


def install_config_module(module):
    # Running the config source again (the repro writer does, to learn the defaults) installs
    # again on the imported module: the aliases it already has are kept.
    aliases = dict(type(module)._aliases) if isinstance(module, ConfigModule) else {}
    for name, value in list(vars(module).items()):
        if isinstance(value, Config):
            aliases[name] = value.alias
            del vars(module)[name]

    class ConfigModuleInstance(ConfigModule):
        _aliases = aliases

    module.__class__ = ConfigModuleInstance
