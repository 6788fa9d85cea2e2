from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise import fields

class Migration(migrations.Migration):
    dependencies = [('models', '0006_library_system_no_default')]

    initial = False

    operations = [
        ops.AddField(
            model_name='OutboxItem',
            name='claimed_at',
            field=fields.DatetimeField(null=True, auto_now=False, auto_now_add=False),
        ),
    ]
