from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise import fields

class Migration(migrations.Migration):
    dependencies = [('models', '0005_checkpoints')]

    initial = False

    operations = [
        ops.AlterField(
            model_name='SavedCharacter',
            name='system',
            field=fields.CharField(max_length=16),
        ),
    ]
